import { useState } from 'react';
import { Share2 } from 'lucide-react';
import './ShareButton.css';

export const COPIED = 'Link copied to clipboard!';

/**
 * Shares the post through the device's share sheet where there is one, otherwise copies
 * the link. Rendered as plain HTML and hydrated on first interaction (client:interaction).
 */
export default function ShareButton({ url, title }: { url: string; title: string }) {
  const [message, setMessage] = useState('');

  async function share() {
    setMessage('');
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (cause) {
        if (cause instanceof DOMException && cause.name === 'AbortError') return; // the reader closed the sheet
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setMessage(COPIED);
    } catch {
      setMessage(`Copy this link: ${url}`);
    }
  }

  return (
    <div className="share">
      <button type="button" className="btn btn--outline share__button" onClick={share}>
        <Share2 size={18} aria-hidden="true" /> Share
      </button>
      <p className="share__status" role="status">
        {message}
      </p>
    </div>
  );
}
