import type { ComponentProps, ReactNode } from 'react';

/** A list of named facts about one thing: its children are `Fact`s. */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className="facts">{children}</dl>;
}

/** One fact: its name, then its value (`dd` attributes such as a className or a test id go on the value). */
export function Fact({ term, children, ...value }: { term: ReactNode } & ComponentProps<'dd'>) {
  return (
    <>
      <dt>{term}</dt>
      <dd {...value}>{children}</dd>
    </>
  );
}
