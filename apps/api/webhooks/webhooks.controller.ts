import { Controller, Delete, Get, Headers, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WebhookEndpointsService } from '@pylon/webhooks';
import { ApiIdempotencyKey, readIdempotencyKey } from '../common/idempotency';
import { PageQuery, toPageRequest } from '../common/pagination.dto';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, assertOwnOrg, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import {
  CreateWebhookEndpointRequest,
  ListDeliveriesQuery,
  RecoverDeliveriesRequest,
  RecoveredDeliveriesView,
  RotateSecretRequest,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryList,
  WebhookDeliveryView,
  WebhookEndpointList,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from './dto/webhooks.dto';
import { toDeliveryView, toEndpointView } from './views';
import { NoBody } from '../common/no-body.guard';
import { QueryParams } from '../common/query-params';
import { JsonBody } from '../common/json-body';

/** Signed webhooks (Standard Webhooks): endpoints, secrets, the delivery log and replays. */
@ApiTags('webhooks')
@ApiBearerAuth('apiKey')
@RequireScope('webhooks:manage')
@Controller('api/v1/webhook-endpoints')
export class WebhooksController {
  constructor(private readonly service: WebhookEndpointsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createWebhookEndpoint', summary: 'Add an endpoint; its signing secret is in this response only' })
  @ApiIdempotencyKey('Same key and body return the same endpoint and its secret; another body is 409.')
  @ApiCreatedResponse({ type: WebhookEndpointWithSecret })
  @ApiErrors(400, 401, 403, 409)
  async create(
    @CurrentPrincipal() principal: Principal,
    @JsonBody() body: CreateWebhookEndpointRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<WebhookEndpointWithSecret> {
    assertOwnOrg(principal, body.org_id);
    const endpoint = await this.service.create(principal.orgId, body, readIdempotencyKey(idempotencyKey));
    return { ...toEndpointView(endpoint), secret: endpoint.secret };
  }

  @Get()
  @ApiOperation({ operationId: 'listWebhookEndpoints', summary: 'List endpoints, newest first' })
  @ApiOkResponse({ type: WebhookEndpointList })
  @ApiErrors(400, 401, 403)
  async list(@CurrentPrincipal() principal: Principal, @QueryParams() query: PageQuery): Promise<WebhookEndpointList> {
    const page = await this.service.list(principal.orgId, toPageRequest(query));
    return { data: page.items.map(toEndpointView), next_cursor: page.nextCursor };
  }

  @Get(':endpoint_id')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'Get an endpoint' })
  @ApiUuidParam('endpoint_id')
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiErrors(400, 401, 403, 404)
  async get(@CurrentPrincipal() principal: Principal, @UuidParam('endpoint_id') endpointId: string): Promise<WebhookEndpointView> {
    return toEndpointView(await this.service.get(principal.orgId, endpointId));
  }

  @Patch(':endpoint_id')
  @ApiOperation({ operationId: 'updateWebhookEndpoint', summary: 'Change the url, events, description, or enable/disable' })
  @ApiUuidParam('endpoint_id')
  @ApiOkResponse({ type: WebhookEndpointView })
  @ApiErrors(400, 401, 403, 404)
  async update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('endpoint_id') endpointId: string,
    @JsonBody() body: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpointView> {
    return toEndpointView(await this.service.update(principal.orgId, endpointId, body));
  }

  @Delete(':endpoint_id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteWebhookEndpoint', summary: 'Delete an endpoint and its delivery log' })
  @ApiUuidParam('endpoint_id')
  @ApiNoContentResponse()
  @ApiErrors(400, 401, 403, 404)
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('endpoint_id') endpointId: string): Promise<void> {
    await this.service.delete(principal.orgId, endpointId);
  }

  @Post(':endpoint_id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ operationId: 'rotateWebhookSecret', summary: 'A new signing secret; the old one keeps signing alongside for a grace period' })
  @ApiUuidParam('endpoint_id')
  @ApiOkResponse({ type: WebhookEndpointWithSecret })
  @ApiErrors(400, 401, 403, 404)
  async rotate(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('endpoint_id') endpointId: string,
    @JsonBody() body: RotateSecretRequest,
  ): Promise<WebhookEndpointWithSecret> {
    const endpoint = await this.service.rotateSecret(principal.orgId, endpointId, body.grace_seconds);
    return { ...toEndpointView(endpoint), secret: endpoint.secret };
  }

  @Post(':endpoint_id/test')
  @NoBody()
  @HttpCode(202)
  @ApiOperation({ operationId: 'sendWebhookTestEvent', summary: 'Send a test event to this endpoint' })
  @ApiUuidParam('endpoint_id')
  @ApiAcceptedResponse({ type: WebhookDeliveryView })
  @ApiErrors(400, 401, 403, 404, 409)
  async test(@CurrentPrincipal() principal: Principal, @UuidParam('endpoint_id') endpointId: string): Promise<WebhookDeliveryView> {
    const delivery = await this.service.sendTestEvent(principal.orgId, endpointId);
    return toDeliveryView(delivery, [], await this.service.requestOf(principal.orgId, delivery));
  }

  @Get(':endpoint_id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log of an endpoint, newest first, with each request and every attempt; filter by status, event type or event (message) id',
  })
  @ApiUuidParam('endpoint_id')
  @ApiOkResponse({ type: WebhookDeliveryList })
  @ApiErrors(400, 401, 403, 404)
  async deliveries(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('endpoint_id') endpointId: string,
    @QueryParams() query: ListDeliveriesQuery,
  ): Promise<WebhookDeliveryList> {
    const { deliveries, attempts, requests } = await this.service.listDeliveries(
      principal.orgId,
      endpointId,
      { status: query.status, eventType: query.event_type, eventId: query.event_id },
      toPageRequest(query),
    );
    return { data: deliveries.items.map((delivery) => toDeliveryView(delivery, attempts, requests)), next_cursor: deliveries.nextCursor };
  }

  @Get(':endpoint_id/deliveries/:delivery_id')
  @ApiOperation({ operationId: 'getWebhookDelivery', summary: 'One delivery with its attempts' })
  @ApiUuidParam('endpoint_id')
  @ApiUuidParam('delivery_id')
  @ApiOkResponse({ type: WebhookDeliveryView })
  @ApiErrors(400, 401, 403, 404)
  async delivery(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('endpoint_id') endpointId: string,
    @UuidParam('delivery_id') deliveryId: string,
  ): Promise<WebhookDeliveryView> {
    const { delivery, attempts, request } = await this.service.getDelivery(principal.orgId, endpointId, deliveryId);
    return toDeliveryView(delivery, attempts, request);
  }

  @Post(':endpoint_id/deliveries/:delivery_id/retry')
  @NoBody()
  @HttpCode(202)
  @ApiOperation({ operationId: 'retryWebhookDelivery', summary: 'Re-send a delivery now' })
  @ApiUuidParam('endpoint_id')
  @ApiUuidParam('delivery_id')
  @ApiAcceptedResponse({ type: WebhookDeliveryView })
  @ApiErrors(400, 401, 403, 404)
  async retry(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('endpoint_id') endpointId: string,
    @UuidParam('delivery_id') deliveryId: string,
  ): Promise<WebhookDeliveryView> {
    const delivery = await this.service.retry(principal.orgId, endpointId, deliveryId);
    return toDeliveryView(delivery, [], await this.service.requestOf(principal.orgId, delivery));
  }

  @Post(':endpoint_id/recover')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'recoverWebhookDeliveries',
    summary: 'Re-send now every failed delivery of the endpoint created since a time (at most 1 000 per call)',
  })
  @ApiUuidParam('endpoint_id')
  @ApiAcceptedResponse({ type: RecoveredDeliveriesView })
  @ApiErrors(400, 401, 403, 404, 409)
  async recover(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('endpoint_id') endpointId: string,
    @JsonBody() body: RecoverDeliveriesRequest,
  ): Promise<RecoveredDeliveriesView> {
    const recovery = await this.service.recoverFailed(principal.orgId, endpointId, new Date(body.since));
    return { recovered: recovery.deliveryIds.length, delivery_ids: recovery.deliveryIds, has_more: recovery.more };
  }
}
