import { useRef, useState } from 'react';
import { Play } from 'lucide-react';
import './VideoPlayer.css';

interface Props {
  title: string;
  mp4: string;
  webm?: string;
  captions: string;
  poster: string;
  posterSmall?: string;
}

type State = 'poster' | 'playing' | 'paused';

/**
 * SPEC 4 video player: poster first; playing or paused; back to the poster on a load error;
 * when playback ends the progress resets. Native controls and captions do the rest.
 */
export default function VideoPlayer({ title, mp4, webm, captions, poster, posterSmall }: Props) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<State>('poster');

  const start = () => {
    const video = videoRef.current;
    if (!video) return;
    setState('playing');
    video.play().catch((error: unknown) => {
      console.error('Video could not start', error);
      setState('poster');
    });
  };

  return (
    <div className={`video-player is-${state}`}>
      <video
        ref={videoRef}
        controls={state !== 'poster'}
        preload="none"
        playsInline
        aria-label={title}
        onPlay={() => setState('playing')}
        onPause={() => setState((s) => (s === 'poster' ? s : 'paused'))}
        onEnded={(event) => {
          event.currentTarget.currentTime = 0;
          setState('poster');
        }}
        onError={(event) => {
          console.error('Video failed to load', event.currentTarget.error);
          setState('poster');
        }}
      >
        {webm && <source src={webm} type="video/webm" />}
        <source src={mp4} type="video/mp4" />
        {/* Added once the visitor presses play, so the page load does not fetch the captions. */}
        {state !== 'poster' && <track kind="captions" src={captions} srcLang="en" label="English" default />}
        Your browser does not support the video tag.
      </video>
      {state === 'poster' && (
        <button type="button" className="video-player__poster" onClick={start}>
          <picture>
            {posterSmall && <source media="(max-width: 700px)" srcSet={posterSmall} />}
            <img src={poster} alt="" width={1280} height={720} loading="lazy" decoding="async" />
          </picture>
          <span className="video-player__play"><Play size={34} aria-hidden="true" /></span>
          <span className="visually-hidden">Play video: {title}</span>
        </button>
      )}
    </div>
  );
}
