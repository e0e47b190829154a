import { MessageType, ProtocolError, cString, closeStatementMessage, message, readCString } from './protocol';

/**
 * Named prepared statements live in the one shared PGlite session, so two clients using the
 * same name would collide and a closed client's statements would linger. Each client gets its
 * own name prefix, and its statements are closed when it goes away.
 */
export class StatementNamespace {
  private readonly live = new Set<string>();

  constructor(private readonly prefix: string) {}

  rewrite(frame: Buffer): Buffer {
    switch (frame[0]) {
      case MessageType.Parse: {
        const name = readCString(frame, 5);
        if (name.value === '') return frame;
        this.live.add(name.value);
        return message(MessageType.Parse, cString(this.prefix + name.value), frame.subarray(name.end));
      }
      case MessageType.Bind: {
        const portal = readCString(frame, 5);
        const statement = readCString(frame, portal.end);
        if (statement.value === '') return frame;
        return message(MessageType.Bind, frame.subarray(5, portal.end), cString(this.prefix + statement.value), frame.subarray(statement.end));
      }
      case MessageType.Describe:
      case MessageType.Close: {
        if (frame.length < 7) throw new ProtocolError('truncated Describe/Close message');
        if (frame[5] !== 0x53 /* S: statement, not portal */) return frame;
        const name = readCString(frame, 6);
        if (name.value === '') return frame;
        if (frame[0] === MessageType.Close) this.live.delete(name.value);
        return message(frame[0], frame.subarray(5, 6), cString(this.prefix + name.value), frame.subarray(name.end));
      }
      default:
        return frame;
    }
  }

  /** Close messages for every statement the client still has; send them followed by a Sync. */
  closeAll(): Buffer[] {
    const closes = [...this.live].map((name) => closeStatementMessage(this.prefix + name));
    this.live.clear();
    return closes;
  }
}
