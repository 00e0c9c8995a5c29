import { useState } from "react";
import { type Api, messageOf } from "../api/client";
import { deleteFile, fileContent, files as listFiles } from "../api/endpoints";
import type { FileObject } from "../api/types";
import { ConfirmButton } from "../components/confirm-button";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { download } from "../csv";
import { bytes, when } from "../format";

export function Files({ api }: { api: Api }) {
  const [list, reload] = useLoad(() => listFiles(api), [api]);
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
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Purpose</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.value.data.map((file) => (
                  <tr key={file.id}>
                    <th scope="row">
                      {file.filename}
                      <div className="muted small">
                        <code>{file.id}</code>
                      </div>
                    </th>
                    <td>{file.purpose}</td>
                    <td className="num">{bytes(file.bytes)}</td>
                    <td>{when(file.created_at)}</td>
                    <td>{when(file.expires_at, "never")}</td>
                    <td>
                      <div className="actions">
                        <button
                          type="button"
                          aria-label={`Download ${file.filename}`}
                          onClick={() => save(file)}
                        >
                          Download
                        </button>
                        <ConfirmButton
                          label="Delete"
                          accessibleLabel={`Delete ${file.filename}`}
                          question={`Delete ${file.filename}?`}
                          onConfirm={() => remove(file)}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
