import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pylon, RecoveredDeliveries, WebhookEndpoint } from '@pylon/sdk';
import { useCallback } from 'react';
import { call, type Schemas } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { useChange, type After } from './mutation';

type EndpointCreate = Parameters<Pylon['webhooks']['create']>[0];
type EndpointUpdate = Parameters<Pylon['webhooks']['update']>[1];
type DeliveryStatus = Schemas['WebhookDeliveryView']['status'];
type WebhookEvent = NonNullable<Parameters<Pylon['webhooks']['deliveries']>[1]>['event_type'];

/** What the delivery log shows: a status, an event type, an event id (each '' for any). */
export interface DeliveryFilters {
  status: DeliveryStatus | '';
  eventType: string;
  eventId: string;
}

/** The endpoints, one page of 20. */
export function useWebhookEndpoints(cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.webhooks.endpointList(cursor),
    queryFn: () => call((pylon) => pylon.webhooks.list({ limit: 20 }).page(cursor)),
  });
}

export function useWebhookEndpoint(endpointId: string) {
  return useQuery({ queryKey: queryKeys.webhooks.endpoint(endpointId), queryFn: () => call((pylon) => pylon.webhooks.get(endpointId)) });
}

/** An endpoint's deliveries, one page of 20, followed every second while one is pending (else every 10 s). */
export function useDeliveries(endpointId: string, filters: DeliveryFilters, cursor: string | undefined) {
  const { status, eventType, eventId } = filters;
  return useQuery({
    queryKey: queryKeys.webhooks.deliveryList(endpointId, filters, cursor),
    queryFn: () =>
      call((pylon) =>
        pylon.webhooks
          .deliveries(endpointId, {
            limit: 20,
            ...(status ? { status } : {}),
            ...(eventType ? { event_type: eventType as WebhookEvent } : {}),
            ...(eventId ? { event_id: eventId } : {}),
          })
          .page(cursor),
      ),
    refetchInterval: (query) => (query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 1_000 : 10_000),
  });
}

export function useCreateWebhookEndpoint({ onSuccess }: After<Awaited<ReturnType<Pylon['webhooks']['create']>>, EndpointCreate> = {}) {
  const queryClient = useQueryClient();
  return useChange(
    (body: EndpointCreate) => call((pylon) => pylon.webhooks.create(body)),
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.endpointLists() }),
    { onSuccess },
  );
}

/** After an endpoint changed: it, the list and its delivery log read again. */
function useEndpointChanged(endpointId: string) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.endpoints() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(endpointId) });
  }, [queryClient, endpointId]);
}

/** Changes an endpoint: its URL, description and events, or enabled. */
export function useUpdateWebhookEndpoint(endpointId: string, { onSuccess }: After<WebhookEndpoint, EndpointUpdate> = {}) {
  const changed = useEndpointChanged(endpointId);
  return useChange((body: EndpointUpdate) => call((pylon) => pylon.webhooks.update(endpointId, body)), changed, { onSuccess });
}

/** A new signing secret; the old one keeps signing for `graceSeconds`. */
export function useRotateWebhookSecret(
  endpointId: string,
  { onSuccess }: After<Awaited<ReturnType<Pylon['webhooks']['rotateSecret']>>, number> = {},
) {
  const changed = useEndpointChanged(endpointId);
  return useChange((graceSeconds: number) => call((pylon) => pylon.webhooks.rotateSecret(endpointId, { grace_seconds: graceSeconds })), changed, {
    onSuccess,
  });
}

export function useSendTestEvent(endpointId: string, { onSuccess }: After<unknown> = {}) {
  const changed = useEndpointChanged(endpointId);
  return useMutation({
    mutationFn: () => call((pylon) => pylon.webhooks.sendTestEvent(endpointId)),
    onSuccess: (sent) => {
      changed();
      return onSuccess?.(sent, undefined);
    },
  });
}

export function useDeleteWebhookEndpoint(endpointId: string, { onSuccess }: After<unknown> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call((pylon) => pylon.webhooks.delete(endpointId)),
    onSuccess: (deleted) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.endpointLists() });
      return onSuccess?.(deleted, undefined);
    },
  });
}

/** After a retry or a recovery: the delivery log read again. */
function useDeliveriesChanged(endpointId: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(endpointId) });
}

/** Retry now (a pending or failed delivery) or Send again (a delivered one). */
export function useRetryDelivery(endpointId: string, { onSuccess }: After<unknown, string> = {}) {
  const changed = useDeliveriesChanged(endpointId);
  return useChange((deliveryId: string) => call((pylon) => pylon.webhooks.retryDelivery(endpointId, deliveryId)), changed, { onSuccess });
}

/** Re-sends every failed delivery since a time (ISO 8601), in one call. */
export function useRecoverDeliveries(endpointId: string, { onSuccess }: After<RecoveredDeliveries, string> = {}) {
  const changed = useDeliveriesChanged(endpointId);
  return useChange((since: string) => call((pylon) => pylon.webhooks.recover(endpointId, { since })), changed, { onSuccess });
}
