import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { ApiFailure } from './api/client';
import { App } from './App';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // An answer of the API (4xx) is final; only a network error or a 5xx is worth retrying.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiFailure && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Router base="/console">
        <App />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
