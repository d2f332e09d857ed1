// Every module's drizzle tables, gathered for the typed client. Each module owns its *.tables.ts.
import * as accountsTables from '../modules/accounts/accounts.tables';
import * as rateLimitTables from '../platform/rate-limit.tables';
import * as contactTables from '../modules/contact/contact.tables';
import * as projectsTables from '../modules/projects/projects.tables';
import * as endUsersTables from '../modules/end-users/end-users.tables';
import * as storageTables from '../modules/storage/storage.tables';
import * as hostingTables from '../modules/hosting/hosting.tables';
import * as mailTables from '../modules/mail/mail.tables';
import * as databaseTables from '../modules/database/database.tables';
import * as billingTables from '../modules/billing/billing.tables';
import * as plansTables from '../modules/plans/plans.tables';
import * as usageTables from '../modules/usage/usage.tables';
import * as activityTables from '../modules/activity/activity.tables';

export const schema = { ...accountsTables, ...rateLimitTables, ...contactTables, ...projectsTables, ...endUsersTables, ...storageTables, ...hostingTables, ...mailTables, ...databaseTables, ...billingTables, ...plansTables, ...usageTables, ...activityTables };
