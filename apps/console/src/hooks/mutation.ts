/** What a page adds to a mutation hook's own success (after its invalidations): clear a form, navigate, say what happened. */
export interface After<T, V = void> {
  onSuccess?: (data: T, variables: V) => unknown;
}
