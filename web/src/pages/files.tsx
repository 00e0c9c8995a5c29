import { useState } from "react";
import { type Api, messageOf } from "../api/client";
import { deleteFile, fileContent, files as listFiles } from "../api/endpoints";
import type { FileObject } from "../api/types";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { download } from "../csv";
import { FileTable } from "./file-table";

/** Deleting and downloading a file; a failure, or a deletion, is said in the message. */
function useFileActions(api: Api, reload: () => void) {
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const remove = async (file: FileObject) => {
    try {
      await deleteFile(api, file.id);
      setMessage({ tone: "success", text: `${file.filename} is deleted.` });
      reload();
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error) });
    }
  };
  const save = async (file: FileObject) => {
    try {
      download(file.filename, await fileContent(api, file.id));
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error) });
    }
  };
  return { message, remove, save };
}

export function Files({ api }: { api: Api }) {
  const [list, reload] = useLoad(() => listFiles(api), [api]);
  const { message, remove, save } = useFileActions(api, reload);
  if (list.state === "loading") return <Loading what="files" />;
  if (list.state === "failed") return <LiveRegion tone="error">{list.message}</LiveRegion>;
  return (
    <div className="stack">
      <LiveRegion tone={message?.tone}>{message?.text}</LiveRegion>
      <section className="card" aria-labelledby="files-heading">
        <h2 id="files-heading">Files, newest first</h2>
        {list.value.data.length === 0 ? (
          <p className="muted">
            No files. Batch input files are uploaded with the API (<code>POST /v1/files</code>).
          </p>
        ) : (
          <FileTable files={list.value.data} onSave={save} onRemove={remove} />
        )}
      </section>
    </div>
  );
}
