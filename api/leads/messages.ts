import type { LeadRouting } from '../../contract/build.ts';
import type { ContactBody, InquiryBody, LeadEndpoint } from '../../contract/leads.ts';
import type { NewOutboxRow, OutgoingMessage } from './store.ts';

interface ComposeInput {
  reference: string;
  endpoint: LeadEndpoint;
  body: ContactBody | InquiryBody;
  routing: LeadRouting;
  teamEmail: string;
  createdAt: number;
}

const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

function domainOf(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = at >= 0 ? email.slice(at + 1) : '';
  return /^[A-Za-z0-9.-]+$/.test(domain) ? domain : 'desk-atlas.invalid';
}

function contactLines(body: ContactBody | InquiryBody): string[] {
  const lines = [`Name: ${oneLine(body.name)}`, `Email: ${body.email}`];
  if (body.phone) lines.push(`Phone: ${oneLine(body.phone)}`);
  if (body.company) lines.push(`Company: ${oneLine(body.company)}`);
  lines.push(`Language: ${body.locale}`);
  return lines;
}

function requestLines(body: InquiryBody): string[] {
  const lines: string[] = [];
  if (body.desks !== undefined) lines.push(`Desks: ${body.desks}`);
  if (body.moveInDate) lines.push(`Move-in date: ${body.moveInDate}`);
  if (body.duration) lines.push(`Duration: ${body.duration}`);
  return lines;
}

function messageBlock(body: ContactBody | InquiryBody): string[] {
  return body.message ? ['', 'Message:', body.message] : ['', '(no message)'];
}

interface OperatorGroup { operatorSlug: string | null; operatorName: string | null; email: string; slugs: string[] }

/** Spaces of the inquiry grouped by the operator that receives them; one group, one email. */
function operatorGroups(slugs: string[], routing: LeadRouting): OperatorGroup[] {
  const groups = new Map<string, OperatorGroup>();
  for (const slug of slugs) {
    const route = routing[slug];
    if (!route?.enquiryEmail) continue;
    const key = route.operatorSlug ? `op:${route.operatorSlug}` : `space:${slug}`;
    const group = groups.get(key) ?? {
      operatorSlug: route.operatorSlug, operatorName: route.operatorName, email: route.enquiryEmail, slugs: [],
    };
    if (!group.slugs.includes(slug)) group.slugs.push(slug);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The emails an enquiry produces: one to the team, and for an inquiry one per operator concerned. */
export function composeMessages(input: ComposeInput): NewOutboxRow[] {
  const { reference, endpoint, body, routing, teamEmail, createdAt } = input;
  const domain = domainOf(teamEmail);
  const from = `Desk Atlas <${teamEmail}>`;
  const received = new Date(createdAt).toISOString();
  const rows: NewOutboxRow[] = [];
  const base = (to: string, subject: string, text: string): OutgoingMessage => ({
    from, to, replyTo: body.email, subject, text, date: createdAt,
  });

  if (endpoint === 'contact') {
    const b = body as ContactBody;
    const subject = `[${reference}] Contact: ${b.subject ? oneLine(b.subject) : 'general enquiry'}`;
    const text = [
      `General enquiry ${reference}, received ${received}.`, '',
      ...contactLines(b),
      ...(b.subject ? [`Subject: ${oneLine(b.subject)}`] : []),
      ...messageBlock(b),
      ...attributionLines(b), '',
    ].join('\n');
    rows.push({ kind: 'team', operatorSlug: null, messageId: `<${reference}.team@${domain}>`, message: base(teamEmail, subject, text) });
    return rows;
  }

  const b = body as InquiryBody;
  const groups = operatorGroups(b.properties, routing);
  const spaceLine = (slug: string) => {
    const r = routing[slug];
    if (!r) return `- ${slug}`;
    const who = r.operatorName ? `, ${r.operatorName}` : '';
    const route = r.enquiryEmail ? 'forwarded to the operator' : 'no operator address on file';
    return `- ${oneLine(r.title)} (${slug}${who}): ${route}`;
  };
  const teamText = [
    `Inquiry ${reference}, received ${received}, about ${b.properties.length} space(s):`,
    ...b.properties.map(spaceLine), '',
    ...contactLines(b),
    ...requestLines(b),
    ...messageBlock(b),
    ...attributionLines(b), '',
  ].join('\n');
  const firstTitle = routing[b.properties[0]]?.title ?? b.properties[0];
  const teamSubject = `[${reference}] Inquiry: ${oneLine(firstTitle)}${b.properties.length > 1 ? ` and ${b.properties.length - 1} more` : ''}`;
  rows.push({ kind: 'team', operatorSlug: null, messageId: `<${reference}.team@${domain}>`, message: base(teamEmail, teamSubject, teamText) });

  groups.forEach((g, i) => {
    const titles = g.slugs.map((s) => `- ${oneLine(routing[s]?.title ?? s)} (${s})`);
    const text = [
      `Hello${g.operatorName ? ` ${oneLine(g.operatorName)}` : ''},`, '',
      `A visitor of Desk Atlas asked about ${g.slugs.length === 1 ? 'this space' : 'these spaces'} of yours:`,
      ...titles, '',
      ...contactLines(b),
      ...requestLines(b),
      ...messageBlock(b), '',
      `Reply to this email to answer the enquirer directly. Our reference: ${reference}.`,
      'Desk Atlas forwards enquiries; it does not broker a contract.', '',
    ].join('\n');
    const subject = `[${reference}] Enquiry about ${oneLine(routing[g.slugs[0]]?.title ?? g.slugs[0])}${g.slugs.length > 1 ? ` and ${g.slugs.length - 1} more` : ''}`;
    const tag = g.operatorSlug ?? `space-${i + 1}`;
    rows.push({
      kind: 'operator', operatorSlug: g.operatorSlug,
      messageId: `<${reference}.op.${tag}@${domain}>`, message: base(g.email, subject, text),
    });
  });
  return rows;
}

function attributionLines(body: ContactBody | InquiryBody): string[] {
  const a = body.attribution;
  if (!a) return [];
  const parts = [`source=${a.source}`];
  if (a.firstTouch) parts.push(`firstTouch=${oneLine(a.firstTouch)}`);
  if (a.lastTouch) parts.push(`lastTouch=${oneLine(a.lastTouch)}`);
  if (a.campaign) parts.push(`campaign=${oneLine(a.campaign)}`);
  if (a.viewedProperties?.length) parts.push(`viewed=${a.viewedProperties.join(',')}`);
  return ['', `Attribution: ${parts.join('; ')}`];
}
