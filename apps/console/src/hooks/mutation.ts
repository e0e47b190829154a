import { useMutation } from '@tanstack/react-query';

/** What a page adds to a mutation hook's own success (after its invalidations): clear a form, navigate, say what happened. */
export interface After<T, V = void> {
  onSuccess?: (data: T, variables: V) => unknown;
}

/** A mutation that, once it succeeded, marks what it changed (`changed`: the queries to read again), then runs the page's `onSuccess`. */
export function useChange<T, V = void>(
  mutationFn: (variables: V) => Promise<T>,
  changed: (data: T, variables: V) => void,
  { onSuccess }: After<T, V> = {},
) {
  return useMutation({
    mutationFn,
    onSuccess: (data: T, variables: V) => {
      changed(data, variables);
      return onSuccess?.(data, variables);
    },
  });
}
