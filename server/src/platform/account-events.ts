// What happens to an account that someone should hear about: raised where it happens (a deploy
// that failed, a site's process that crashed, a mail domain whose DNS stopped verifying, a plan
// limit passed, two-factor turned off), heard by the modules that keep a record of it (the
// project's errors panel) or tell the developer (notification mails). In process, on the instance
// where it happened: every listener writes what it keeps to the database, so no other instance
// needs to hear it.
export type Severity = 'low' | 'medium' | 'high';

export type AccountEvent =
  | { type: 'deploy_failed'; accountId: string; projectId: string; message: string }
  | { type: 'runtime_crashed'; accountId: string; projectId: string; message: string }
  | { type: 'dns_unverified'; accountId: string; projectId: string; domain: string; message: string }
  /** A plan limit reached (percent 100) or nearly (80); limit: its name as people read it ("Storage"). */
  | { type: 'quota_passed'; accountId: string; projectId?: string; limit: string; plan: string; percent: 80 | 100; message: string }
  | { type: 'mfa_disabled'; accountId: string; message: string };

export type AccountEventListener = (event: AccountEvent) => Promise<void>;

export interface AccountEvents {
  /** Tells every listener; a listener that fails is logged and does not stop the others or the caller. */
  emit(event: AccountEvent): Promise<void>;
  on(listener: AccountEventListener): void;
}

export function createAccountEvents(log: { error(obj: object, msg: string): void }): AccountEvents {
  const listeners: AccountEventListener[] = [];
  return {
    on: (listener) => void listeners.push(listener),
    emit: async (event) => {
      await Promise.all(
        listeners.map((listener) =>
          listener(event).catch((err: Error) => log.error({ err, event: event.type }, 'account event: a listener failed')),
        ),
      );
    },
  };
}
