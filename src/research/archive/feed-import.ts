import { absoluteWebUrl, feedItems, itemArticle } from "../feeds/feed-articles.js";
import { parseFeedDate } from "../feeds/feed-date.js";
import type { NewArticle } from "./archive-store.js";
import type { ImportDating } from "./article-line.js";

export type FeedEntry = { article: NewArticle } | { rejected: string; line: number };

const ITEM_START = /<(?:[A-Za-z_][\w.-]*:)?(?:item|entry)[\s>/]/g;

/**
 * The items of a feed document given to `sibyl news import`, as archive articles or as
 * rejections with the line their item starts on. An imported feed is a file like any other:
 * its items count as first seen at the import (or at their date, if the import says so), and
 * their text is untrusted. An item needs an http(s) link and a readable date; an edit time
 * (Atom `updated`) later than its date counts as when its text was first seen.
 */
export function feedItemArticles(xml: string, fileUrl: string, dating: ImportDating): FeedEntry[] {
  let feed: ReturnType<typeof feedItems>;
  try {
    feed = feedItems(xml);
  } catch (error) {
    return [
      { rejected: `not a readable RSS, Atom or RDF feed: ${(error as Error).message}`, line: 1 },
    ];
  }
  const lines = itemLines(xml);
  const source = feed.title || null;
  return feed.items.map((item, index): FeedEntry => {
    const line = lines[index] ?? 1;
    const url = absoluteWebUrl(item.link, fileUrl);
    if (!url) return { rejected: "item has no http(s) link", line };
    if (item.date === undefined || item.date.trim() === "") {
      return { rejected: "item has no date", line };
    }
    const published = parseFeedDate(item.date);
    if (published === null) {
      return {
        rejected: `item date is not a readable date: ${JSON.stringify(item.date.trim().slice(0, 60))}`,
        line,
      };
    }
    const updated = item.updated === undefined ? null : parseFeedDate(item.updated);
    if (item.updated !== undefined && updated === null) {
      return {
        rejected: `item updated date is not a readable date: ${JSON.stringify(item.updated.trim().slice(0, 60))}`,
        line,
      };
    }
    const seen =
      dating.firstSeen === "published" ? published : Math.max(dating.importedAt, published);
    const article = itemArticle(item, url, source ?? new URL(url).hostname);
    if (article.title === "") return { rejected: "item has no title", line };
    return {
      article: {
        ...article,
        publishedAt: published,
        firstSeenAt: Math.max(seen, updated ?? seen),
        origin: "import",
      },
    };
  });
}

/** The line each item or entry element starts on, in document order. */
function itemLines(xml: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  for (const match of xml.matchAll(ITEM_START)) {
    for (let index = counted; index < match.index; index++) {
      if (xml.charCodeAt(index) === 10) line += 1;
    }
    counted = match.index;
    lines.push(line);
  }
  return lines;
}
