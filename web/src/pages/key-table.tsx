import type { ApiKey } from "../api/types";
import { ConfirmButton } from "../components/confirm-button";
import { SpendLimitEditor } from "../components/spend-limit-editor";
import { usd, when } from "../format";

export const keyLabel = (key: ApiKey) => key.name ?? key.redacted_value;
/** The name the server gives the keys that dashboard sign-in links issue. */
const SIGN_IN_KEY_NAME = "dashboard sign-in";

interface KeyActions {
  onRevoke: (key: ApiKey) => Promise<void>;
  onChangeLimit: (key: ApiKey, limitUsd: number | null) => Promise<void>;
}

export function KeyTable({ keys, ...actions }: { keys: ApiKey[] } & KeyActions) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scope</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col" className="num">
              Spend limit
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} {...actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({ apiKey: key, onRevoke, onChangeLimit }: { apiKey: ApiKey } & KeyActions) {
  return (
    <tr className={key.revoked_at ? "revoked" : undefined}>
      <th scope="row">
        <KeyName name={key.name} />
      </th>
      <td>
        <code>{key.redacted_value}</code>
      </td>
      <td>
        <span className={`badge badge-${key.scope}`}>{key.scope}</span>
      </td>
      <td>{when(key.created_at)}</td>
      <td>{when(key.last_used_at)}</td>
      <td>{when(key.expires_at, "never")}</td>
      <td className="num">
        <div className="limit-cell">
          {key.spend_limit_usd === null ? "none" : usd(key.spend_limit_usd)}
          {key.revoked_at ? null : (
            <SpendLimitEditor
              keyLabel={keyLabel(key)}
              limitUsd={key.spend_limit_usd}
              onSave={(limit) => onChangeLimit(key, limit)}
            />
          )}
        </div>
      </td>
      <td>
        {key.revoked_at ? (
          <span className="muted">revoked {when(key.revoked_at)}</span>
        ) : (
          <ConfirmButton
            label="Revoke"
            accessibleLabel={`Revoke key ${keyLabel(key)}`}
            question={`Revoke ${keyLabel(key)}? Requests with it stop working at once.`}
            onConfirm={() => onRevoke(key)}
          />
        )}
      </td>
    </tr>
  );
}

function KeyName({ name }: { name: string | null }) {
  return (
    <>
      {name ?? <span className="muted">unnamed</span>}
      {name === SIGN_IN_KEY_NAME ? (
        <>
          {" "}
          <span
            className="badge badge-sign-in"
            title="Issued by a dashboard sign-in link; expires with its session"
          >
            sign-in
          </span>
        </>
      ) : null}
    </>
  );
}
