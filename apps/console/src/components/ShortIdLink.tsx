import { Link } from 'wouter';

/** A link named by the first 8 characters of an id, enough to tell rows apart. */
export function ShortIdLink({ href, id }: { href: string; id: string }) {
  return (
    <Link href={href}>
      <code>{id.slice(0, 8)}</code>
    </Link>
  );
}
