// The notifications module's face: its plugin, for app.ts (it listens on the account events
// channel and mails; nothing calls it).
export { notificationsPlugin } from './notifications.module';
