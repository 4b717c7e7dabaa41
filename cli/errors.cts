/** Exit codes scripts rely on, and the one error type that carries them. */

/** 0 ok, 1 the action failed, 2 usage, 3 cannot reach the host, 4 not authorised. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3, unauthorised: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the client reports in one line on stderr, then exits with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: ExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
