// SPEC section 4: on load the console checks the stored token with POST /api/verify-token.
// No token, or any answer other than "True", removes the token and sends the user to /auth/login;
// no answer at all (a failed request) is not an answer.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { verifyToken } from '../../api/generated/accounts/accounts';
import { ApiError } from '../../api/http';
import { clearToken, getToken } from '../../lib/session';

export type GateState = 'checking' | 'allowed';

export function useTokenGate(): GateState {
  const navigate = useNavigate();
  const [state, setState] = useState<GateState>('checking');

  useEffect(() => {
    let cancelled = false;
    const deny = () => {
      if (cancelled) return;
      clearToken();
      navigate('/auth/login', { replace: true });
    };
    const token = getToken();
    if (!token) {
      deny();
      return;
    }
    // Only the server's verdict decides. A request that got none (the page being left while it was
    // on its way, the network or the server down for a moment) is asked again: it must not sign
    // the developer out.
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    const check = () => {
      verifyToken({ token })
        .then((res) => {
          if (cancelled) return;
          if (res?.message === 'True') setState('allowed');
          else deny();
        })
        .catch((err: unknown) => {
          if (cancelled) return;
          // A refusal (4xx) is an answer; a server that is down or busy (5xx, 429) is asked again.
          if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429) return deny();
          attempt += 1;
          retry = setTimeout(check, Math.min(1000 * attempt, 5000));
        });
    };
    check();
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [navigate]);

  return state;
}
