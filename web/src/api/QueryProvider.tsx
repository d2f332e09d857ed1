// Provides the app's QueryClient (see queryClient.ts), wired to the toasts: sits inside ToastProvider.
import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useToast } from '../components/Toast';
import { createQueryClient, type QueryClientOptions } from './queryClient';

export function QueryProvider({ children, ...options }: Omit<QueryClientOptions, 'toastError'> & { children: ReactNode }) {
  const toast = useToast();
  const [client] = useState(() => createQueryClient({ ...options, toastError: toast.error }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
