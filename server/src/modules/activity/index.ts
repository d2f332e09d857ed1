// The activity module's face: what other modules and app.ts may use. Everything else in this
// folder is the module's own (npm run lint:deps fails on an import of it from outside).
// The account's activity log and each project's errors. A repository that makes a change writes
// its entry in the same transaction through the context helpers (activity.context.ts).
export { activityPlugin } from './activity.module';
export { activityActor, activityNote, activityProject, transactionWithActivity } from './activity.context';
export type { ActivityRow, ProjectErrorRow } from './activity.tables';
