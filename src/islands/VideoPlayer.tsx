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
  /** A poster drawn in HTML (brand fonts, text that scales with the player) instead of the poster picture. */
  cover?: { eyebrow: string; heading: string; text: string };
}

type State = 'poster' | 'playing' | 'paused';

/**
 * Video player: poster first; playing or paused; back to the poster on a load error;
 * when playback ends the progress resets. Native controls and captions do the rest.
 */
export default function VideoPlayer({ title, mp4, webm, captions, poster, posterSmall, cover }: Props) {
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
      {/* biome-ignore lint/a11y/useMediaCaption: the captions track is added once playback starts (below) */}
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
        <button type="button" className={`video-player__poster${cover ? ' has-cover' : ''}`} onClick={start}>
          {cover ? (
            <span className="video-cover" aria-hidden="true">
              <span className="video-cover__eyebrow">{cover.eyebrow}</span>
              <span className="video-cover__heading">{cover.heading}</span>
              <span className="video-cover__text">{cover.text}</span>
              <svg className="video-cover__art" viewBox="0 0 300 220" role="presentation">
                <circle cx="150" cy="120" r="100" fill="rgb(255 255 255 / 0.08)" />
                <rect x="40" y="150" width="44" height="46" rx="8" className="video-cover__bar" />
                <rect x="96" y="118" width="44" height="78" rx="8" className="video-cover__bar" />
                <rect x="152" y="86" width="44" height="110" rx="8" className="video-cover__bar" />
                <rect
                  x="208"
                  y="54"
                  width="44"
                  height="142"
                  rx="8"
                  className="video-cover__bar video-cover__bar--top"
                />
                <rect x="228" y="14" width="4" height="42" className="video-cover__bar" />
                <path d="M232 14 L262 24 L232 34 Z" className="video-cover__flag" />
                <rect x="30" y="198" width="232" height="6" rx="3" fill="rgb(255 255 255 / 0.5)" />
              </svg>
            </span>
          ) : (
            <picture>
              {posterSmall && <source media="(max-width: 700px)" srcSet={posterSmall} />}
              <img src={poster} alt="" width={1280} height={720} loading="lazy" decoding="async" />
            </picture>
          )}
          <span className="video-player__play">
            <Play size={34} aria-hidden="true" />
          </span>
          <span className="visually-hidden">Play video: {title}</span>
        </button>
      )}
    </div>
  );
}
