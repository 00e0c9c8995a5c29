import { type AnyFeed, parseFeed } from "feedsmith";
import type { NewArticle } from "../archive/archive-store.js";
import { parseFeedDate } from "./feed-date.js";
import { htmlToText } from "./html-text.js";

/** Items read from one feed document; feeds list their newest few dozen. */
export const MAX_FEED_ITEMS = 500;

/** One feed item before it is dated by the poll that saw it. */
export interface FeedItem {
  link: string | undefined;
  title: string | undefined;
  /** HTML fragments, as feeds carry them. */
  summary: string | undefined;
  content: string | undefined;
  date: string | undefined;
  /** An edit time the item states (Atom `updated`), when it differs from `date`. */
  updated: string | undefined;
}

/** The feed's title and its items as they stand; throws when `xml` is not a feed. */
export function feedItems(xml: string): { title: string; items: FeedItem[] } {
  return readFeed(parseFeed<string>(xml, { maxItems: MAX_FEED_ITEMS }));
}

/** An item's fields as an article holds them (text from HTML); dates are the caller's. */
export function itemArticle(
  item: FeedItem,
  url: string,
  source: string,
): Omit<NewArticle, "publishedAt" | "firstSeenAt" | "origin"> {
  const summary = item.summary ? htmlToText(item.summary) : "";
  const content = item.content ? htmlToText(item.content) : "";
  return {
    url,
    title: item.title ? htmlToText(item.title) : "",
    source,
    // With no separate content, the summary is the text, and the snippet is cut from it.
    summary: content && summary ? summary : null,
    text: content || summary,
  };
}

/**
 * The articles of an RSS, Atom or RDF document, first seen at `firstSeenAt`: each item's own date
 * is its publication time, or `firstSeenAt` when it has none. Items without an http(s) link are
 * skipped; relative links are read against the feed's url. Throws when `xml` is not a feed.
 */
export function feedArticles(xml: string, feedUrl: string, firstSeenAt: number): NewArticle[] {
  const { title, items } = feedItems(xml);
  const source = title || new URL(feedUrl).hostname;
  const articles: NewArticle[] = [];
  for (const item of items) {
    const url = absoluteWebUrl(item.link, feedUrl);
    if (!url) continue;
    articles.push({
      ...itemArticle(item, url, source),
      publishedAt: parseFeedDate(item.date) ?? firstSeenAt,
      firstSeenAt,
      origin: "feed",
    });
  }
  return articles;
}

function readFeed(parsed: AnyFeed<string>): { title: string; items: FeedItem[] } {
  switch (parsed.format) {
    case "rss":
      return {
        title: text(parsed.feed.title),
        items: (parsed.feed.items ?? []).map((item) => ({
          link: item.link ?? (item.guid?.isPermaLink !== false ? item.guid?.value : undefined),
          title: item.title,
          summary: item.description,
          content: item.content?.encoded,
          date: item.pubDate ?? item.dc?.dates?.[0],
          updated: undefined,
        })),
      };
    case "atom":
      return {
        title: text(parsed.feed.title?.value),
        items: (parsed.feed.entries ?? []).map((entry) => ({
          link: (
            entry.links?.find((link) => link.rel === undefined || link.rel === "alternate") ??
            entry.links?.[0]
          )?.href,
          title: entry.title?.value,
          summary: entry.summary?.value,
          content: entry.content?.value,
          // `updated` is an edit time, later than publication: the safe side for a backtest.
          date: entry.published ?? entry.updated,
          updated: entry.updated,
        })),
      };
    case "rdf":
      return {
        title: text(parsed.feed.title),
        items: (parsed.feed.items ?? []).map((item) => ({
          link: item.link,
          title: item.title,
          summary: item.description,
          content: undefined,
          date: item.dc?.dates?.[0],
          updated: undefined,
        })),
      };
    default:
      // JSON Feed is parsed from JSON, never from the XML documents fetched here.
      return { title: "", items: [] };
  }
}

function text(value: string | undefined): string {
  return value ? htmlToText(value) : "";
}

export function absoluteWebUrl(link: string | undefined, base: string): string | null {
  if (!link?.trim()) return null;
  try {
    const url = new URL(link.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}
