import { Injectable } from '@nestjs/common';
import { WORKFLOW_TYPES, webhookFanoutWorkflowId } from '@pylon/contracts';
import { WorkflowStarter } from './workflow-starter';

/** For events recorded outside a workflow (by the API): starts their webhook fan-out, once. */
@Injectable()
export class EventAnnouncer {
  constructor(private readonly workflows: WorkflowStarter) {}

  async announce(orgId: string, eventId: string | null): Promise<void> {
    if (!eventId) return;
    await this.workflows.start({
      workflowType: WORKFLOW_TYPES.webhookFanout,
      workflowId: webhookFanoutWorkflowId(eventId),
      args: [{ eventId, orgId }],
      orgId,
      resourceId: eventId,
      summary: `Webhook fan-out of event ${eventId}`,
    });
  }
}
