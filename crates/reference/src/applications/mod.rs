//! The Applications chapter: kernels whose inputs or outputs are pictures
//! (photographs, fractals, fields a simulation moves, spectra). One module a
//! puzzle, each a pure function of the case with
//! its formula.

mod edge_detection;
mod fft;
mod gaussian_blur;
mod histogram_equalisation;
mod mandelbrot;
mod n_body;
mod reaction_diffusion;

pub use edge_detection::sobel_magnitude;
pub use fft::fft_rows;
pub use gaussian_blur::gaussian_blur_separable;
pub use histogram_equalisation::equalise_histogram;
pub use mandelbrot::mandelbrot_counts;
pub use n_body::n_body_step;
pub use reaction_diffusion::gray_scott_steps;
