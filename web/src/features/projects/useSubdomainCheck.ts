// SPEC section 4: empty -> (500 ms debounce) -> checking -> available | taken | error.
import { useEffect, useRef, useState } from 'react';
import { checkSubdomain } from '../../api/generated/projects/projects';

export type SubdomainState = 'empty' | 'checking' | 'available' | 'taken' | 'error';

export const SUBDOMAIN_DEBOUNCE_MS = 500;

export const SUBDOMAIN_MESSAGES: Record<Exclude<SubdomainState, 'empty'>, string> = {
  checking: 'Checking availability...',
  available: 'Subdomain is available',
  taken: 'Subdomain is already taken',
  error: 'Error checking availability',
};

export interface SubdomainCheck {
  state: SubdomainState;
  /** The message to show, or null while empty. */
  message: string | null;
}

export function useSubdomainCheck(subdomain: string, delay = SUBDOMAIN_DEBOUNCE_MS): SubdomainCheck {
  const [check, setCheck] = useState<SubdomainCheck>({ state: 'empty', message: null });
  const latest = useRef(0);

  useEffect(() => {
    const value = subdomain.trim();
    const id = ++latest.current;
    setCheck({ state: 'empty', message: null });
    if (!value) return;
    const timer = setTimeout(() => {
      setCheck({ state: 'checking', message: SUBDOMAIN_MESSAGES.checking });
      checkSubdomain({ subdomain: value })
        .then((res) => {
          if (id !== latest.current) return;
          if (res.available) setCheck({ state: 'available', message: SUBDOMAIN_MESSAGES.available });
          else {
            // "taken" keeps the spec's text; an invalid or reserved name says why.
            const why = res.reason && res.reason !== 'taken' && res.message ? res.message : SUBDOMAIN_MESSAGES.taken;
            setCheck({ state: 'taken', message: why });
          }
        })
        .catch(() => {
          if (id === latest.current) setCheck({ state: 'error', message: SUBDOMAIN_MESSAGES.error });
        });
    }, delay);
    return () => clearTimeout(timer);
  }, [subdomain, delay]);

  return check;
}
