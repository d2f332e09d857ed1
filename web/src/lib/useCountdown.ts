import { useCallback, useEffect, useState } from 'react';

/** A countdown from `seconds` to 1 that starts again when it runs out. */
export function useLoopingCountdown(seconds: number): [number, () => void] {
  const [left, setLeft] = useState(seconds);
  const [epoch, setEpoch] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setLeft((s) => (s <= 1 ? seconds : s - 1)), 1000);
    return () => clearInterval(id);
  }, [seconds, epoch]);
  const reset = useCallback(() => {
    setLeft(seconds);
    setEpoch((e) => e + 1);
  }, [seconds]);
  return [left, reset];
}
