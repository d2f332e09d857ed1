// The one error of an export or import: its message says what to do and is shown as it is (by
// the CLI, and by the export API as a 400). Apart from export.ts so that the parts export uses
// (manifest-zip.ts) can raise it without importing export.ts back.
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
