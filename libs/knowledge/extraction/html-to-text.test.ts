import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToText } from './html-to-text';
import { ExtractionFailure } from './types';

const convert = (html: string) => htmlToText(html, 10_000);

describe('htmlToText', () => {
  it('turns headings, paragraphs, line breaks and entities into Markdown-flavoured text', () => {
    assert.equal(
      convert('<h2>Fish &amp; chips</h2><p>Line one<br>line\n   two</p><h6>Small</h6>'),
      '## Fish & chips\n\nLine one\nline two\n\n###### Small\n',
    );
  });

  it('makes the title the first heading only when there is no h1', () => {
    assert.equal(convert('<title>The title</title><body><h2>Part</h2><p>Body</p></body>'), '# The title\n\n## Part\n\nBody\n');
    assert.equal(convert('<title>The title</title><body><h1>Real heading</h1></body>'), '# Real heading\n');
  });

  it('lists nested items with indentation, one per line', () => {
    assert.equal(convert('<ul><li>Parent<ul><li>Child</li></ul></li><li>Next</li></ul>'), '- Parent\n  - Child\n- Next\n');
  });

  it('keeps a table row on one line even when cells hold paragraphs', () => {
    assert.equal(convert('<table><tr><td><p>A</p><p>a2</p></td><td>B</td></tr><tr><td>C</td><td></td></tr></table>'), 'A a2 | B\nC |\n');
  });

  it('drops scripts, styles, svg, templates and comments', () => {
    assert.equal(
      convert('<p>kept</p><script>x()</script><style>p{}</style><svg><title>icon</title></svg><template>t</template><!-- c -->'),
      'kept\n',
    );
  });

  it('refuses text longer than the limit', () => {
    assert.throws(
      () => htmlToText(`<p>${'word '.repeat(100)}</p>`, 100),
      (error: unknown) => {
        assert.ok(error instanceof ExtractionFailure);
        assert.equal(error.message, "the file's text is longer than 100 characters");
        return true;
      },
    );
  });
});
