import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Client, Connection } from '@temporalio/client';
import { PylonConfig } from '@pylon/config';
import { EventAnnouncer } from './event-announcer';
import { TaskQueueBacklogReader } from './task-queue-backlog';
import { WorkflowStarter } from './workflow-starter';
import { AgentScheduleEngine } from './agent-schedule-engine';

/** The API's Temporal client. The connection is lazy so the API starts (and reports not-ready) while Temporal is down. */
@Injectable()
export class TemporalClientLifecycle implements OnApplicationShutdown {
  constructor(@Inject(Client) private readonly client: Client) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.connection.close();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: Client,
      inject: [PylonConfig],
      useFactory: (config: PylonConfig) =>
        new Client({
          connection: Connection.lazy({ address: config.temporalAddress }),
          namespace: config.temporalNamespace,
        }),
    },
    TemporalClientLifecycle,
    WorkflowStarter,
    EventAnnouncer,
    TaskQueueBacklogReader,
    AgentScheduleEngine,
  ],
  exports: [Client, WorkflowStarter, EventAnnouncer, TaskQueueBacklogReader, AgentScheduleEngine],
})
export class TemporalClientModule {}
