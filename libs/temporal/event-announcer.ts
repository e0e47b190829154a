import { Injectable } from '@nestjs/common';
import { WORKFLOW_TYPES, webhookEventWorkflowId } from '@pylon/contracts';
import { WorkflowStarter } from './workflow-starter';

/** For events recorded outside a workflow (by the API): delivers them through a workflow, once. */
@Injectable()
export class EventAnnouncer {
  constructor(private readonly workflows: WorkflowStarter) {}

  async announce(orgId: string, eventId: string | null): Promise<void> {
    if (!eventId) return;
    await this.workflows.start({
      workflowType: WORKFLOW_TYPES.webhookEvent,
      workflowId: webhookEventWorkflowId(eventId),
      args: [{ eventId, orgId }],
      orgId,
      resourceId: eventId,
      summary: `Webhook deliveries of event ${eventId}`,
    });
  }
}
