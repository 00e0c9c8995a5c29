import type { FileObject } from "../api/types";
import { ConfirmButton } from "../components/confirm-button";
import { bytes, when } from "../format";

interface FileHandlers {
  onSave: (file: FileObject) => Promise<void>;
  onRemove: (file: FileObject) => Promise<void>;
}

export function FileTable({ files, ...handlers }: { files: FileObject[] } & FileHandlers) {
  return (
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
          {files.map((file) => (
            <FileRow key={file.id} file={file} {...handlers} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FileRow({ file, onSave, onRemove }: { file: FileObject } & FileHandlers) {
  return (
    <tr>
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
            onClick={() => onSave(file)}
          >
            Download
          </button>
          <ConfirmButton
            label="Delete"
            accessibleLabel={`Delete ${file.filename}`}
            question={`Delete ${file.filename}?`}
            onConfirm={() => onRemove(file)}
          />
        </div>
      </td>
    </tr>
  );
}
