// The CLI's exit codes, and the error that carries one: a script can tell a usage mistake from a
// refusal from an unreachable platform without reading the message.
export const EXIT = {
  /** Done. */
  ok: 0,
  /** The platform refused or the work failed (a wrong password, a failed build, not signed in). */
  failure: 1,
  /** The command line is wrong (unknown command or option, a missing argument). */
  usage: 2,
  /** The platform could not be reached (not running, wrong --url). */
  unreachable: 3,
  /** Interrupted (Ctrl-C) while following a build. */
  interrupted: 130,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}
