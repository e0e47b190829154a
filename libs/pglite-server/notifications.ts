import { readCString } from './protocol';

const NOTIFICATION_RESPONSE = 0x41; // 'A'
const QUERY = 0x51; // 'Q'

/** A NotificationResponse as PGlite wrote it, and the channel it is for. */
export interface Notification {
  channel: string;
  message: Buffer;
}

/**
 * PGlite has one backend for every client, so a NOTIFY comes back in the output of whichever client
 * committed it. Takes those messages out of an output, to be handed to the clients that LISTEN.
 */
export function takeNotifications(output: Buffer): { rest: Buffer; notifications: Notification[] } {
  const notifications: Notification[] = [];
  const kept: Buffer[] = [];
  let offset = 0;
  while (offset + 5 <= output.length) {
    const end = offset + 1 + output.readInt32BE(offset + 1);
    if (output[offset] === NOTIFICATION_RESPONSE) {
      // 'A', length, process id, channel\0, payload\0
      notifications.push({ channel: readCString(output, offset + 9).value, message: output.subarray(offset, end) });
    } else {
      kept.push(output.subarray(offset, end));
    }
    offset = end;
  }
  if (notifications.length === 0) return { rest: output, notifications };
  return { rest: Buffer.concat(kept), notifications };
}

/** `LISTEN x` / `UNLISTEN x` / `UNLISTEN *` sent as a simple query, with Postgres' case folding of the name. */
export function listenCommand(message: Buffer): { listen: boolean; channel: string } | undefined {
  if (message[0] !== QUERY) return undefined;
  const sql = readCString(message, 5).value;
  const match = /^\s*(UN)?LISTEN\s+("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*|\*)\s*;?\s*$/i.exec(sql);
  if (!match) return undefined;
  const name = match[2]!;
  const channel = name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toLowerCase();
  return { listen: !match[1], channel };
}

/** Which clients listen on which channel; every channel is LISTENed on the shared backend once asked. */
export class NotificationRouter<Client extends { deliver(message: Buffer): void }> {
  private readonly channels = new Map<string, Set<Client>>();

  apply(client: Client, command: { listen: boolean; channel: string }): void {
    if (command.listen) {
      let listeners = this.channels.get(command.channel);
      if (!listeners) this.channels.set(command.channel, (listeners = new Set()));
      listeners.add(client);
    } else if (command.channel === '*') {
      this.forget(client);
    } else {
      this.channels.get(command.channel)?.delete(client);
    }
  }

  forget(client: Client): void {
    for (const listeners of this.channels.values()) listeners.delete(client);
  }

  /** Each listening client gets the notifications of one reply in one write (a run's final statement announces several events). */
  route(notifications: Notification[]): void {
    if (notifications.length === 0) return;
    const byClient = new Map<Client, Buffer[]>();
    for (const notification of notifications) {
      for (const client of this.channels.get(notification.channel) ?? []) {
        const messages = byClient.get(client);
        if (messages) messages.push(notification.message);
        else byClient.set(client, [notification.message]);
      }
    }
    for (const [client, messages] of byClient) client.deliver(messages.length === 1 ? messages[0]! : Buffer.concat(messages));
  }
}
