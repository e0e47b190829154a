import type { Schemas } from '../api/client';
import { VIDEO_COST } from '../api/ledger';

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 12, right: 16, bottom: 28, left: 72 };

/**
 * The balance over time, as a step line of each ledger entry's `balance_after` (a small hand-made SVG:
 * one chart does not justify a chart library). The entries come newest first.
 */
export function LedgerChart({ entries, now: readAt }: { entries: Schemas['TokenEntryView'][]; now: number }) {
  if (entries.length === 0) return <p>No ledger entries yet.</p>;
  const points = [...entries].reverse().map((entry) => ({ at: Date.parse(entry.created_at), balance: entry.balance_after, entry }));
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const now = Math.max(readAt, last.at);
  const span = Math.max(now - first.at, 1);
  const top = Math.max(...points.map((point) => point.balance), 1);
  const x = (at: number) => PAD.left + ((at - first.at) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (balance: number) => HEIGHT - PAD.bottom - (balance / top) * (HEIGHT - PAD.top - PAD.bottom);
  let path = `M ${x(first.at)} ${y(first.balance)}`;
  for (const point of points.slice(1)) path += ` H ${x(point.at)} V ${y(point.balance)}`;
  path += ` H ${x(now)}`;
  const description = `Token balance from ${new Date(first.at).toLocaleString()} (${first.balance.toLocaleString()}) to now (${last.balance.toLocaleString()}), over ${points.length} ledger entries.`;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="ledger-chart-title ledger-chart-desc">
        <title id="ledger-chart-title">Token balance over time</title>
        <desc id="ledger-chart-desc">{description}</desc>
        <line x1={PAD.left} y1={HEIGHT - PAD.bottom} x2={WIDTH - PAD.right} y2={HEIGHT - PAD.bottom} className="axis" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={HEIGHT - PAD.bottom} className="axis" />
        <text x={PAD.left - 6} y={y(top)} textAnchor="end" dominantBaseline="middle">
          {top.toLocaleString()}
        </text>
        <text x={PAD.left - 6} y={y(0)} textAnchor="end" dominantBaseline="middle">
          0
        </text>
        <text x={PAD.left} y={HEIGHT - 8}>
          {new Date(first.at).toLocaleTimeString()}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end">
          now
        </text>
        <path d={path} className="line" />
        {points.map((point) => (
          <circle key={point.entry.entry_id} cx={x(point.at)} cy={y(point.balance)} r={3} className={`dot dot-${point.entry.kind}`}>
            <title>{`${point.entry.kind} ${point.entry.delta > 0 ? '+' : ''}${point.entry.delta.toLocaleString()} → ${point.balance.toLocaleString()} (${new Date(point.at).toLocaleString()})`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        {description} Grants and refunds raise it; each generation or extension takes {VIDEO_COST.toLocaleString()}.
      </figcaption>
    </figure>
  );
}
