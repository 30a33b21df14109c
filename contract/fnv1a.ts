/** FNV-1a (32 bits) of a text's UTF-16 code units: a quick hash for tables of keys, not against an adversary. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> 0;
}
