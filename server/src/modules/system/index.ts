// The system module's face: its plugin (health and version), for app.ts.
export { systemPlugin } from './system.handlers';
