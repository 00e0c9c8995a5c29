import { useEffect, useState } from "react";
import { type Api, messageOf } from "../api/client";
import { cancelBatch, fileContent, batches as listBatches } from "../api/endpoints";
import type { Batch, BatchStatus } from "../api/types";
import { useLoad } from "../components/use-load";
import { download } from "../csv";

const ACTIVE: BatchStatus[] = ["validating", "in_progress", "finalizing", "cancelling"];
/** How often the list refreshes while a batch is still running. */
const POLL_MS = 3_000;

/** The batches shown so far, refreshed every few seconds while any of them still runs. */
export function useBatchList(api: Api) {
  const [pages, setPages] = useState<string[]>([]);
  const [list, reload] = useLoad(
    async () => {
      // The first page and every page the person asked for, so a refresh keeps what is shown.
      const first = await listBatches(api);
      const rest = await Promise.all(pages.map((after) => listBatches(api, after)));
      const all = [first, ...rest];
      return { batches: all.flatMap((page) => page.data), last: all.at(-1) };
    },
    [api, pages],
    { extends: true },
  );
  const running =
    list.state === "ready" && list.value.batches.some((batch) => ACTIVE.includes(batch.status));
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [running, reload]);
  const showOlder = (after: string) => setPages([...pages, after]);
  return { list, reload, showOlder };
}

/** Downloading a batch's files and cancelling it, each saying how it went. */
export function useBatchActions(api: Api, reload: () => void) {
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const save = async (fileId: string, name: string) => {
    try {
      download(name, await fileContent(api, fileId));
      setMessage({ tone: "success", text: `Downloading ${name}.` });
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error) });
    }
  };
  const cancel = async (batch: Batch) => {
    try {
      await cancelBatch(api, batch.id);
      setMessage({ tone: "success", text: `Batch ${batch.id} is being cancelled.` });
      reload();
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error) });
    }
  };
  return { message, save, cancel };
}
