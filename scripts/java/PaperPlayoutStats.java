import ai.framework.IBoard;
import ai.mcts.MCTSOptions;
import ai.mcts.TreeNode;

import java.lang.reflect.Method;

/**
 * The outcome distribution of one player's playouts from one Breakthrough position in the paper
 * authors' Java code (tpepels/mcts_gameframe, compiled on the class path), beside
 * `examples/playout_stats.rs` for imcts (`scripts/compare_root_stats.py --playouts`). This file is
 * imcts's own: it builds the options from a `SimGame` label as `PaperRate.java` does and calls the
 * code's own playout (`TreeNode.playOut`, private, reached by reflection) from a node whose
 * player is the side to move, as the code's search does at a leaf.
 *
 * Usage: java -cp BUILD:. PaperPlayoutStats LABEL POSITION PLAYOUTS SEED
 * Output, one line: `playouts N mean_reward R wins W cut C mean_plies L` (reward and wins for the
 * side to move; plies are the moves made on the board, `cut` the playouts that ended before the
 * game did).
 */
public class PaperPlayoutStats {
    public static void main(String[] args) throws Exception {
        if (args.length != 4)
            throw new IllegalArgumentException("usage: PaperPlayoutStats LABEL POSITION PLAYOUTS SEED");
        MCTSOptions o = PaperRate.options(args[0], 1000);
        Counting b = new Counting();
        PaperRate.board(args[1], b);
        long n = Long.parseLong(args[2]);
        MCTSOptions.r.setSeed(Long.parseLong(args[3]));
        int mover = b.getPlayerToMove();
        TreeNode node = new TreeNode(mover, o);
        Method playOut = TreeNode.class.getDeclaredMethod("playOut", IBoard.class, int.class);
        playOut.setAccessible(true);
        double sum = 0;
        long wins = 0, cut = 0;
        for (long i = 0; i < n; i++) {
            b.ended = false;
            double r = (Double) playOut.invoke(node, b, 1);
            sum += r;
            if (r > 0) wins++;
            if (!b.ended) cut++;
        }
        System.out.printf("playouts %d mean_reward %.5f wins %d cut %d mean_plies %.3f%n", n, sum / n, wins, cut,
                (double) b.moves / n);
    }

    /** The code's board, counting the moves made on it and noting a finished game. */
    static class Counting extends breakthrough.game.Board {
        long moves;
        boolean ended;

        @Override
        public boolean doAIMove(ai.framework.IMove move, int player) {
            boolean ok = super.doAIMove(move, player);
            if (ok) {
                moves++;
                if (checkWin() != NONE_WIN) ended = true;
            }
            return ok;
        }
    }
}
