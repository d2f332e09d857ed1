// The contact module's face: the contact form's plugin, for app.ts.
export { contactPlugin } from './contact.handlers';
