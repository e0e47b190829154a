import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/client';
import { Link } from 'wouter';
import { describeRefund, refundsByGeneration, VIDEO_COST, type LedgerEntry } from '../../api/ledger';
import { useLedger } from '../../hooks/use-tokens';
import { useCancelVideo, useExtendVideo, useGenerateVideo, useGenerations } from '../../hooks/use-videos';
import { DocsLink, ErrorNotice, ScopeNote, Status, When } from '../../components/ui';
import { Submit } from '../../components/Submit';
import { useSession } from '../../session';

type Generation = Schemas['VideoGenerationResponse'];
type AspectRatio = Schemas['CreateGenerationRequest']['aspect_ratio'];
const ASPECT_RATIOS: AspectRatio[] = ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9', '9:21'];

/**
 * Video generation. The API has no list of generations, so the gallery is the generations the token
 * ledger charged for (each debit names its generation) plus those made in this tab, fetched by id.
 */
export function VideosPage() {
  const { can } = useSession();
  const [madeHere, setMadeHere] = useState<string[]>([]);
  const { entries, balance } = useLedger(can('tokens:read'));
  const ledger = entries.data?.data ?? [];
  const charged = ledger.filter((entry) => entry.kind === 'debit' && entry.reference_type === 'video_generation').map((entry) => entry.reference_id!);
  const refunds = refundsByGeneration(ledger);
  const ids = [...new Set([...madeHere, ...charged])].slice(0, 50);
  const generations = useGenerations(ids);
  const created = (generation: Generation) => setMadeHere((seen) => [generation.id, ...seen]);

  return (
    <>
      <h1>Videos</h1>
      <DocsLink tag="video">Video generation in the API reference</DocsLink>
      {can('tokens:read') ? (
        <section aria-labelledby="tokens-heading">
          <h2 id="tokens-heading">Tokens</h2>
          <ErrorNotice error={balance.error ?? entries.error} />
          {balance.data && (
            <p>
              Balance: <strong data-testid="token-balance">{balance.data.balance.toLocaleString()}</strong> tokens (
              {Math.floor(balance.data.balance / VIDEO_COST)} generations at {VIDEO_COST.toLocaleString()} each; a failed or cancelled one is
              refunded). <Link href="/billing">The ledger</Link>
            </p>
          )}
        </section>
      ) : (
        <ScopeNote>
          The token balance and ledger need the tokens:read scope, which this key does not have; the gallery then shows only the videos made in this
          tab.
        </ScopeNote>
      )}
      {can('video:create') ? (
        <Generate onCreated={created} />
      ) : (
        <ScopeNote>Generating, extending and cancelling videos needs the video:create scope, which this key does not have.</ScopeNote>
      )}
      <section aria-labelledby="gallery-heading">
        <h2 id="gallery-heading">Gallery</h2>
        <ErrorNotice error={generations.error} />
        {ids.length === 0 && <p>No videos yet.</p>}
        <ul className="gallery">
          {generations.data?.map((generation) => (
            <VideoCard key={generation.id} generation={generation} refund={refunds.get(generation.id)} onCreated={created} />
          ))}
        </ul>
      </section>
    </>
  );
}

function Generate({ onCreated }: { onCreated: (generation: Generation) => void }) {
  const [prompt, setPrompt] = useState('');
  const [aspectRatio, setAspectRatio] = useState<AspectRatio>('16:9');
  const [imageUrl, setImageUrl] = useState('');
  const [imageEndUrl, setImageEndUrl] = useState('');
  const generate = useGenerateVideo({
    onSuccess: (generation) => {
      setPrompt('');
      onCreated(generation);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate({
      user_prompt: prompt,
      aspect_ratio: aspectRatio,
      ...(imageUrl ? { image_url: imageUrl } : {}),
      ...(imageEndUrl ? { image_end_url: imageEndUrl } : {}),
    });
  };
  return (
    <section aria-labelledby="generate-heading">
      <h2 id="generate-heading">Generate a video</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor="video-prompt">Prompt</label>
        <textarea id="video-prompt" required maxLength={2000} rows={2} value={prompt} onChange={(event) => setPrompt(event.target.value)} />
        <label htmlFor="video-aspect">Aspect ratio</label>
        <select id="video-aspect" value={aspectRatio} onChange={(event) => setAspectRatio(event.target.value as AspectRatio)}>
          {ASPECT_RATIOS.map((ratio) => (
            <option key={ratio} value={ratio}>
              {ratio}
            </option>
          ))}
        </select>
        <label htmlFor="video-start">Start image URL (optional)</label>
        <input id="video-start" type="url" value={imageUrl} onChange={(event) => setImageUrl(event.target.value)} />
        <label htmlFor="video-end">End image URL (optional)</label>
        <input id="video-end" type="url" value={imageEndUrl} onChange={(event) => setImageEndUrl(event.target.value)} />
        <Submit disabled={generate.isPending} error={generate.error}>
          Generate ({VIDEO_COST.toLocaleString()} tokens)
        </Submit>
      </form>
    </section>
  );
}

function VideoCard({
  generation,
  refund,
  onCreated,
}: {
  generation: Generation;
  refund: LedgerEntry | undefined;
  onCreated: (generation: Generation) => void;
}) {
  const { can } = useSession();
  const [playing, setPlaying] = useState(false);
  const [extension, setExtension] = useState('');
  const extend = useExtendVideo(generation.id, {
    onSuccess: (created) => {
      setExtension('');
      onCreated(created);
    },
  });
  const cancel = useCancelVideo(generation.id);
  const video = generation.video;
  const busy = generation.state === 'pending' || generation.state === 'processing';
  return (
    <li className="card">
      <h3 className="clip">{generation.prompt}</h3>
      <p>
        <Status value={generation.state} /> <When at={generation.created_at} />
        {generation.state === 'failed' && (
          <span className="failure-reason"> — {refund ? describeRefund(refund) : 'no video; the refund follows within seconds'}</span>
        )}
        {busy && <progress aria-label={`Rendering “${generation.prompt}”`} />}
      </p>
      {video &&
        (playing ? (
          <video
            src={video.url}
            poster={video.thumbnail}
            controls
            autoPlay
            muted
            width={Math.min(video.width, 320)}
            aria-label={`Video: ${generation.prompt}`}
          />
        ) : (
          <button type="button" className="thumbnail" onClick={() => setPlaying(true)} aria-label={`Play “${generation.prompt}”`}>
            <img src={video.thumbnail} alt="" width={Math.min(video.width, 320)} />
          </button>
        ))}
      {video && (
        <p className="hint">
          {video.width}×{video.height}
        </p>
      )}
      {can('video:create') && busy && (
        <button type="button" className="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
          Cancel
        </button>
      )}
      {can('video:create') && generation.state === 'completed' && (
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            extend.mutate(extension);
          }}
        >
          <label htmlFor={`extend-${generation.id}`}>Extend with</label>
          <input
            id={`extend-${generation.id}`}
            required
            maxLength={2000}
            value={extension}
            onChange={(event) => setExtension(event.target.value)}
            placeholder="what happens next"
          />
          <button type="submit" disabled={extend.isPending}>
            Extend
          </button>
        </form>
      )}
      <ErrorNotice error={extend.error ?? cancel.error} />
    </li>
  );
}
