/**
 * Burns `share` (argv[2]) of one core in bursts of `burstMs` (argv[3]) ms with randomised gaps, until
 * killed: a load that takes the CPU the way a flood's processes do, and nothing else.
 */
const share = Number(process.argv[2]);
const burstMs = Number(process.argv[3] ?? 10);

function burn(ms: number): number {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  return x;
}

function tick(): void {
  burn(burstMs);
  const meanGapMs = (burstMs * (1 - share)) / share;
  setTimeout(tick, meanGapMs * (0.5 + Math.random()));
}

process.title = 'pylon-bench-cpu-burner';
if (share > 0 && share < 1) tick();
else console.error(`cpu-burner: share must be in (0, 1), got ${process.argv[2]}`);
