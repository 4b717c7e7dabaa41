/**
 * Docs excerpts for a bundle: local Markdown only, read fresh and never cached
 * to disk. Sources, in order: a Markdown tree named by STACKD_AI_DOCS_DIR (its root holds
 * `index.md`: a DUMB docs checkout, say), then stackd's own README and the `docs/` reference
 * beside it, cut into their sections.
 * Pages are scored against the question and the process (+80 for a page about the process,
 * +10 per keyword found, +2 per matching path word), the best six kept within `max_docs_chars`.
 */
import { compareText } from '../../../sdk/index.js';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

const MAX_PAGES = 6;
const MAX_FILES = 400;
const STOP_WORDS = new Set([
  'what',
  'with',
  'this',
  'that',
  'from',
  'does',
  'have',
  'when',
  'why',
  'failing',
  'service',
  'should',
]);

export interface DocPage {
  readonly title: string;
  readonly path: string;
  readonly text: string;
}

export interface DocsContext {
  readonly available: boolean;
  readonly source: 'local' | null;
  readonly docs_root: string | null;
  readonly note: string;
  readonly max_chars: number;
  readonly sources: ReadonlyArray<{ title: string; path: string; score: number; excerpt: string }>;
}

/** Front matter, images and HTML comments out; blank runs collapsed. */
function clean(markdown: string): string {
  return markdown
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The `##` and `###` sections of one Markdown file, each a page. */
export function sectionsOf(markdown: string, path: string): DocPage[] {
  const pages: DocPage[] = [];
  for (const part of clean(markdown).split(/^(?=#{2,3} )/m)) {
    const heading = /^#{2,3} (.+)$/m.exec(part)?.[1]?.trim();
    if (heading === undefined) continue;
    pages.push({
      title: heading,
      path: `${path}#${heading.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      text: part,
    });
  }
  return pages;
}

async function markdownTree(root: string): Promise<DocPage[]> {
  const pages: DocPage[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (pages.length >= MAX_FILES || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) {
        const text = clean(await readFile(path, 'utf8'));
        const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? entry.name.replace(/\.md$/, '');
        pages.push({ title, path: relative(root, path), text });
      }
    }
  };
  await walk(root);
  return pages;
}

/** The pages of the first source that exists. */
export async function loadDocs(
  docsDir: string | undefined,
  readmePath: string | null,
): Promise<{ root: string; pages: DocPage[] } | null> {
  if (docsDir !== undefined && docsDir !== '') {
    const index = await readFile(join(docsDir, 'index.md'), 'utf8').catch(() => undefined);
    if (index !== undefined) return { root: docsDir, pages: await markdownTree(docsDir) };
  }
  if (readmePath === null) return null;
  const readme = await readFile(readmePath, 'utf8').catch(() => undefined);
  if (readme === undefined) return null;
  const reference = await referencePages(join(dirname(readmePath), 'docs'));
  return { root: readmePath, pages: [...sectionsOf(readme, 'README.md'), ...reference] };
}

/**
 * The reference the README points to: every Markdown file of the `docs/` folder beside it, cut
 * into its `#` to `###` sections (a plugin's page is one `#` section with its facts below).
 * No folder, no pages.
 */
async function referencePages(docsDir: string): Promise<DocPage[]> {
  const files = await markdownTree(docsDir).catch(() => []);
  const root = dirname(docsDir);
  return files.flatMap((file) =>
    topSectionsOf(file.text, relative(root, join(docsDir, file.path))),
  );
}

/** Like {@link sectionsOf}, but a file's `#` title section is a page too. */
function topSectionsOf(markdown: string, path: string): DocPage[] {
  return markdown.split(/^(?=#{1,3} )/m).flatMap((part) => {
    const heading = /^#{1,3} (.+)$/m.exec(part)?.[1]?.trim();
    if (heading === undefined) return [];
    const anchor = heading.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return [{ title: heading, path: `${path}#${anchor}`, text: part.trim() }];
  });
}

const wordsOf = (text: string) =>
  [...new Set(text.toLowerCase().match(/[a-z0-9][a-z0-9_-]{3,}/g) ?? [])].filter(
    (word) => !STOP_WORDS.has(word),
  );

export function scorePages(
  pages: readonly DocPage[],
  subject: {
    processName?: string | undefined;
    configKey?: string | undefined;
    question?: string | undefined;
  },
): Array<DocPage & { score: number }> {
  const names = [subject.processName, subject.configKey]
    .filter((name): name is string => name !== undefined && name !== '')
    .map((name) => name.toLowerCase());
  const keywords = wordsOf([...names, subject.question ?? ''].join(' '));
  return pages
    .map((page) => {
      const haystack = `${page.title}\n${page.text}`.toLowerCase();
      const about = names.some((name) => `${page.title} ${page.path}`.toLowerCase().includes(name));
      const pathWords = wordsOf(page.path.replace(/[/#.]/g, ' '));
      const score =
        (about ? 80 : 0) +
        10 * keywords.filter((word) => haystack.includes(word)).length +
        2 * pathWords.filter((word) => keywords.includes(word)).length;
      return { ...page, score };
    })
    .filter((page) => page.score > 0)
    .sort((a, b) => b.score - a.score || compareText(a.path, b.path))
    .slice(0, MAX_PAGES);
}

/** The docs context of a bundle. */
export async function docsContext(
  options: {
    docsDir: string | undefined;
    readmePath: string | null;
    maxChars?: number | undefined;
  },
  subject: {
    processName?: string | undefined;
    configKey?: string | undefined;
    question?: string | undefined;
  },
): Promise<DocsContext> {
  const maxChars = Math.min(60_000, Math.max(1000, options.maxChars || 12_000));
  const docs = await loadDocs(options.docsDir, options.readmePath);
  if (docs === null)
    return {
      available: false,
      source: null,
      docs_root: null,
      note: 'No local documentation found (set STACKD_AI_DOCS_DIR to a Markdown tree with index.md).',
      max_chars: maxChars,
      sources: [],
    };
  const ranked = scorePages(docs.pages, subject);
  let budget = maxChars;
  const sources = [];
  for (const page of ranked) {
    if (budget <= 0) break;
    const excerpt = page.text.slice(0, Math.min(budget, Math.ceil(maxChars / 2)));
    budget -= excerpt.length;
    sources.push({ title: page.title, path: page.path, score: page.score, excerpt });
  }
  return {
    available: sources.length > 0,
    source: 'local',
    docs_root: docs.root,
    note:
      sources.length > 0
        ? `${sources.length} of ${docs.pages.length} pages matched.`
        : 'No page matched the question or the process.',
    max_chars: maxChars,
    sources,
  };
}
