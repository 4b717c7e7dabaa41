/** Why service-config content is not valid: a 1-based line and a message (every format's check). */
export interface FormatProblem {
  readonly line: number;
  readonly message: string;
}
