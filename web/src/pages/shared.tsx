import { ApiError } from "../api/client";

/** Whether a failure is the API refusing an `inference` key an admin-only action. */
export const needsAdmin = (error: unknown) => error instanceof ApiError && error.status === 403;

export function AdminOnly({ what }: { what: string }) {
  return (
    <div className="notice notice-info">
      <p>
        {what} needs a key with the <strong>admin</strong> scope. You are signed in with an{" "}
        <strong>inference</strong> key, which can make requests but not manage the organization.
        Sign in with an admin key, or ask an admin of your organization.
      </p>
    </div>
  );
}

export const SECONDS_PER_DAY = 86_400;

/** Unix seconds of the start of the UTC day `daysAgo` days before today. */
export function utcDayStart(daysAgo: number): number {
  const now = Math.floor(Date.now() / 1000);
  return (Math.floor(now / SECONDS_PER_DAY) - daysAgo) * SECONDS_PER_DAY;
}
