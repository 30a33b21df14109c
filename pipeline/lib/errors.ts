/** A failure that stops the build; the message names the rule, the file and the row where there is one. */
export class BuildError extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(`${rule}: ${message}`);
    this.name = 'BuildError';
  }
}
