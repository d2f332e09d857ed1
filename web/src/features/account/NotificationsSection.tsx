import { useState } from 'react';
import { Switch } from './Switch';

/** A yes/no preference kept in this browser's localStorage. */
function usePref(key: string, initial: boolean): [boolean, (v: boolean) => void] {
  const [v, setV] = useState(() => {
    try {
      const s = localStorage.getItem(key);
      return s === null ? initial : s === 'true';
    } catch {
      return initial;
    }
  });
  return [
    v,
    (next) => {
      setV(next);
      try {
        localStorage.setItem(key, String(next));
      } catch {
        /* storage unavailable */
      }
    },
  ];
}

export function NotificationsSection() {
  const [emailOn, setEmailOn] = usePref('pref_email_notifications', true);
  const [pushOn, setPushOn] = usePref('pref_push_notifications', false);
  return (
    <section className="card panel" aria-labelledby="notif-title">
      <h2 id="notif-title" className="panel-title">Notifications</h2>
      <p className="muted">Saved on this device.</p>
      <Switch label="Email notifications" description="Deployments, quota warnings and security alerts." checked={emailOn} onChange={setEmailOn} />
      <Switch label="Push notifications" description="Alerts in this browser." checked={pushOn} onChange={setPushOn} />
    </section>
  );
}
