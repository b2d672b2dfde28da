/** An uploaded image's narrowest copy (480 px wide), loaded when it scrolls near; decorative. */
export default function Thumbnail({
  src,
  width,
  height,
  className,
}: {
  src: string;
  width: number;
  height: number;
  className?: string;
}) {
  return (
    <img
      className={className}
      src={src.replace(/\.webp$/, '-w480.webp')}
      alt=""
      width={width}
      height={height}
      loading="lazy"
    />
  );
}
