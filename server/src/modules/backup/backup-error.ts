// An export or import refused, with a message for the person who asked (a 409, or the CLI's
// answer). Its own file: export.ts and manifest-zip.ts both throw it, and manifest-zip.ts is
// imported by export.ts.
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
