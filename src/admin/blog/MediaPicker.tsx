import { useEffect, useId, useState } from 'react';
import { Check, ImagePlus, X } from 'lucide-react';
import { BLOG_LIMITS, isBlankText } from '../../schemas/blog';
import { api } from '../api';
import { prepareForUpload } from './scale-image';
import { uploadFailure, uploadImage } from './upload';
import Modal from './Modal';
import Thumbnail from './Thumbnail';
import { Loading } from '../Loading';

interface LibraryImage {
  imageUrl: string;
  width: number;
  height: number;
  uploadedAt: string;
}

const ALT_REQUIRED = 'Describe the picture in the alt text before inserting it.';

/**
 * Picks a picture for a post from the images already uploaded (so one upload serves many posts), or
 * uploads a new one, and asks for its alt text, which a picture in the text always needs.
 */
export default function MediaPicker({
  onInsert,
  onClose,
}: {
  onInsert: (image: { src: string; alt: string }) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [images, setImages] = useState<LibraryImage[] | null>(null);
  const [loadProblem, setLoadProblem] = useState('');
  const [chosen, setChosen] = useState('');
  const [alt, setAlt] = useState('');
  const [altError, setAltError] = useState('');
  const [uploading, setUploading] = useState(false);
  const [uploadProblem, setUploadProblem] = useState('');

  useEffect(() => {
    let live = true;
    api<{ images: LibraryImage[] }>('/uploads')
      // An upload can finish before the library answers, and the library may have been listed before that
      // upload was stored: keep what was uploaded here in front, or the new picture (already chosen) vanishes.
      .then((answer) => {
        if (!live) return;
        setImages((current) => {
          const listed = new Set(answer.images.map((image) => image.imageUrl));
          return [...(current ?? []).filter((image) => !listed.has(image.imageUrl)), ...answer.images];
        });
      })
      .catch((cause: unknown) => {
        console.error('The image library could not be loaded', cause);
        if (live) setLoadProblem('The uploaded images could not be loaded. You can still upload a new one.');
        if (live) setImages((current) => current ?? []);
      });
    return () => {
      live = false;
    };
  }, []);

  async function upload(file: File | undefined) {
    if (!file) return;
    setUploadProblem('');
    setUploading(true);
    try {
      const answer = await uploadImage(await prepareForUpload(file));
      setImages((current) => [
        { imageUrl: answer.imageUrl, width: 0, height: 0, uploadedAt: new Date().toISOString() },
        ...(current ?? []),
      ]);
      setChosen(answer.imageUrl);
    } catch (cause) {
      setUploadProblem(uploadFailure(cause));
    } finally {
      setUploading(false);
    }
  }

  // No <form> here: the picker is opened from inside the post's form, and a form cannot hold another.
  function insert() {
    if (!chosen) return;
    if (isBlankText(alt)) {
      setAltError(ALT_REQUIRED);
      document.getElementById(`${id}-alt`)?.focus();
      return;
    }
    onInsert({ src: chosen, alt: alt.trim() });
  }

  return (
    <Modal className="media-picker" labelledBy={`${id}-title`} onCancel={onClose}>
      <div className="media-picker__form">
        <header className="blog-form__head">
          <h2 id={`${id}-title`}>Insert an image</h2>
          <button type="button" className="blog-form__close" onClick={onClose} aria-label="Close">
            <X size={22} aria-hidden="true" />
          </button>
        </header>
        <div className="media-picker__body">
          <div className="media-picker__upload">
            <label className="admin-btn admin-btn--ghost media-picker__file">
              <ImagePlus size={18} aria-hidden="true" /> {uploading ? 'Uploading...' : 'Upload a new image'}
              <input
                type="file"
                accept="image/jpeg,image/png,image/gif,image/webp"
                disabled={uploading}
                onChange={(event) => void upload(event.target.files?.[0])}
              />
            </label>
            <p className="admin-hint">Or choose one already uploaded:</p>
          </div>
          {uploadProblem && (
            <p className="admin-error" role="alert">
              {uploadProblem}
            </p>
          )}
          {loadProblem && (
            <p className="admin-error" role="alert">
              {loadProblem}
            </p>
          )}
          {images === null ? (
            <Loading text="Loading images..." />
          ) : images.length === 0 ? (
            <p className="admin-hint">No images have been uploaded yet.</p>
          ) : (
            <ul className="media-picker__grid" role="list" aria-label="Uploaded images">
              {images.map((image, index) => (
                <li key={image.imageUrl}>
                  <button
                    type="button"
                    className="media-picker__item"
                    aria-pressed={chosen === image.imageUrl}
                    onClick={() => setChosen(image.imageUrl)}
                  >
                    <Thumbnail src={image.imageUrl} width={160} height={90} />
                    <span className="visually-hidden">
                      Image {index + 1}
                      {image.uploadedAt ? `, uploaded ${new Date(image.uploadedAt).toLocaleString('en-AU')}` : ''}
                    </span>
                    {chosen === image.imageUrl && <Check className="media-picker__tick" size={20} aria-hidden="true" />}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="admin-field">
            <label htmlFor={`${id}-alt`}>
              Alt text <span aria-hidden="true">*</span>
            </label>
            <input
              id={`${id}-alt`}
              type="text"
              value={alt}
              maxLength={BLOG_LIMITS.featuredImageAlt}
              required
              aria-invalid={altError ? true : undefined}
              aria-describedby={`${id}-alt-hint${altError ? ` ${id}-alt-error` : ''}`}
              onChange={(event) => {
                setAlt(event.target.value);
                setAltError('');
              }}
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return;
                event.preventDefault();
                insert();
              }}
            />
            <p id={`${id}-alt-hint`} className="admin-hint">
              What the picture shows, for readers who cannot see it.
            </p>
            {altError && (
              <p id={`${id}-alt-error`} className="admin-error">
                {altError}
              </p>
            )}
          </div>
        </div>
        <footer className="blog-form__foot">
          <button type="button" className="admin-btn admin-btn--ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="admin-btn admin-btn--primary"
            disabled={!chosen || uploading}
            onClick={insert}
          >
            Insert image
          </button>
        </footer>
      </div>
    </Modal>
  );
}
