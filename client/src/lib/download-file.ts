import { ApiError, errorCodeOf } from './api-client';
import { getToken } from './auth-token';

/**
 * Fetches a signed-in download (a CSV export, "Download my data") and saves it under the name
 * the server gives in Content-Disposition, else `fallbackName`. A refusal throws the server's
 * message.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const token = getToken();
  const response = await fetch(url, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    cache: 'no-store',
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(body.message || `HTTP ${response.status}`, response.status, errorCodeOf(body));
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const objectUrl = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers start the download only after the click returns.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
}
