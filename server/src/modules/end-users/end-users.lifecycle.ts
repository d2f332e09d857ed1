// A project's end users and auth settings in an archive: users keep their ids (rows of the
// project's database and files name them as owners) and password hashes, so they sign in on the
// target with the same passwords. Sessions and one-time links are this platform's: not carried.
import type { ProjectLifecycle } from '../projects';
import { authUsersArchiveRows as rows } from './end-users.repository';

const SESSIONS = "sessions are not carried: end users sign in again (their tokens are signed with a key derived from this platform's secret)";

const TABLES = {
  auth_settings: {
    carried: ['allowed_origins', 'site_url', 'block_common_passwords', 'updated_at'],
    leftOut: { project_id: "the section's project" },
  },
  end_users: {
    carried: ['id', 'email', 'email_normalized', 'password_hash', 'email_verified_at', 'token_version', 'last_login', 'created_at', 'updated_at'],
    leftOut: { project_id: "the section's project" },
  },
  end_user_refresh_tokens: { carried: [], leftOut: SESSIONS },
  end_user_tokens: { carried: [], leftOut: "password-reset and verification links of this platform: asked for again on the target" },
  end_user_devices: { carried: [], leftOut: "remembered devices are this platform's sign-in throttling state" },
} as const;

export function endUsersLifecycle(): ProjectLifecycle {
  return {
    name: 'auth-users',
    after: ['projects'],
    tables: TABLES,

    async export(out) {
      const users = await rows.users(out.tx, out.projectId, TABLES.end_users.carried);
      out.put('auth_settings', await rows.settings(out.tx, out.projectId, TABLES.auth_settings.carried));
      out.put('end_users', users);
      out.count('end_users', users.length);
    },

    async import(input) {
      const settings = input.row('auth_settings');
      if (settings) await rows.insertSettings(input.tx, ['project_id', ...TABLES.auth_settings.carried], { ...settings, project_id: input.projectId });
      const users = input.rows('end_users').map((u) => ({ ...u, project_id: input.projectId }));
      await rows.insertUsers(input.tx, ['project_id', ...TABLES.end_users.carried], users);
    },
  };
}
