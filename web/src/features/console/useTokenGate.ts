// SPEC section 4: on load the console checks the stored token with POST /api/verify-token.
// No token, or any answer other than "True", removes the token and sends the user to /auth/login.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { verifyToken } from '../../api/generated/accounts/accounts';
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
    verifyToken({ token })
      .then((res) => {
        if (cancelled) return;
        if (res?.message === 'True') setState('allowed');
        else deny();
      })
      .catch(deny);
    return () => {
      cancelled = true;
    };
  }, [navigate]);

  return state;
}
