//! Entry point of the browser app (built by Trunk): mounts the root component, nothing else.

fn main() {
    fleetplan_web::start();
}
