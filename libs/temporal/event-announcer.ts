import { Injectable } from '@nestjs/common';
import { WORKFLOW_TYPES, webhookWorkflowId, webhookWorkflowSummary, type WebhookEventInput } from '@pylon/contracts';
import { WorkflowStarter } from './workflow-starter';

/**
 * For events recorded outside a workflow (by the API, a test event): delivers them through their webhook
 * workflow, once, which makes the first attempts itself.
 */
@Injectable()
export class EventAnnouncer {
  constructor(private readonly workflows: WorkflowStarter) {}

  async announce(orgId: string, eventId: string | null): Promise<void> {
    if (!eventId) return;
    await this.workflows.start({
      workflowType: WORKFLOW_TYPES.webhook,
      workflowId: webhookWorkflowId(eventId),
      args: [{ eventId, orgId } satisfies WebhookEventInput],
      orgId,
      resourceId: eventId,
      summary: webhookWorkflowSummary(eventId),
    });
  }
}
