// The one error of an export or import: its message says what to do and is shown as it is (by
// the CLI, and by the export API as a 409). A section's own refusal (the projects face's
// LifecycleError) becomes one at the edge of export.ts and import.ts.
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
