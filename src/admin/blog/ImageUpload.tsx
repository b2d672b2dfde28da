import { useId, useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { ImagePlus, Trash2 } from 'lucide-react';
import { MAX_UPLOAD_BYTES, UPLOAD_TYPES } from '../../schemas/blog';
import { prepareForUpload } from './scale-image';
import { uploadFailure, uploadImage } from './upload';

const rejectionText: Record<string, string> = {
  'file-too-large': 'The image is larger than 5 MB. Choose a smaller image.',
  'file-invalid-type': 'Only JPG, PNG, GIF and WebP images are accepted.',
  'too-many-files': 'Upload one image at a time.',
};

/**
 * Featured image: drag and drop or click, one image within docs/limits.md#images,
 * 'Uploading...' while it goes, then a preview, its alt text and 'Remove Image'.
 */
export default function ImageUpload({
  value,
  alt,
  onChange,
  onAltChange,
  onBusyChange,
}: {
  value: string;
  alt: string;
  onChange: (url: string) => void;
  onAltChange: (alt: string) => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState('');
  const altId = useId();
  const hintId = useId();

  async function onDrop(accepted: File[], rejected: FileRejection[]) {
    setProblem('');
    if (rejected.length) {
      const code = rejected.length > 1 ? 'too-many-files' : rejected[0].errors[0]?.code;
      setProblem(
        `Failed to upload image: ${rejectionText[code ?? ''] ?? rejected[0].errors[0]?.message ?? 'This file cannot be used.'}`,
      );
      return;
    }
    const file = accepted[0];
    if (!file) return;
    setUploading(true);
    onBusyChange(true);
    try {
      const answer = await uploadImage(await prepareForUpload(file));
      onChange(answer.imageUrl);
    } catch (cause) {
      setProblem(uploadFailure(cause));
    } finally {
      setUploading(false);
      onBusyChange(false);
    }
  }

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop,
    accept: Object.fromEntries(Object.entries(UPLOAD_TYPES).map(([type, endings]) => [type, [...endings]])),
    maxFiles: 1,
    multiple: false,
    maxSize: MAX_UPLOAD_BYTES,
    disabled: uploading,
    // The button below opens the file picker; the whole area still takes a dropped file.
    noClick: true,
    noKeyboard: true,
  });

  return (
    <fieldset className="admin-field image-upload">
      <legend>Featured Image</legend>
      {value ? (
        <div className="image-upload__preview">
          <img src={value} alt="" width={320} height={180} />
          <div className="image-upload__side">
            <div className="admin-field">
              <label htmlFor={altId}>Image alt text</label>
              <input
                id={altId}
                type="text"
                value={alt}
                maxLength={200}
                aria-describedby={hintId}
                onChange={(event) => onAltChange(event.target.value)}
              />
              <p id={hintId} className="admin-hint">
                Describe the picture for people who cannot see it. Leave empty if it is only decoration.
              </p>
            </div>
            <button type="button" className="admin-btn admin-btn--ghost" onClick={() => onChange('')}>
              <Trash2 size={18} aria-hidden="true" /> Remove Image
            </button>
          </div>
        </div>
      ) : (
        <div {...getRootProps({ className: `dropzone${isDragActive ? ' is-active' : ''}` })}>
          <input {...getInputProps({ 'aria-label': 'Featured image file' })} />
          <button
            type="button"
            className="dropzone__button"
            onClick={open}
            disabled={uploading}
            aria-describedby={`${hintId}-types`}
          >
            <ImagePlus size={32} aria-hidden="true" />
            <span className="dropzone__text">
              {uploading ? 'Uploading...' : 'Drag & drop an image here, or click to select'}
            </span>
          </button>
          <p id={`${hintId}-types`} className="admin-hint">
            Supports: JPG, PNG, GIF, WebP (max 5MB)
          </p>
        </div>
      )}
      <p className="image-upload__status" role="status">
        {uploading ? 'Uploading...' : ''}
      </p>
      {problem && (
        <p className="admin-error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
